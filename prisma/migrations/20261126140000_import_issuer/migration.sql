-- AlterTable: who signed an imported match (its issuer's public URL); null for an unverified import (unsigned, or
-- signed by an issuer not in IMPORT_TRUSTED_ISSUERS) and for every match played here.
ALTER TABLE "matches" ADD COLUMN     "import_issuer" TEXT;

-- Imports made before: none was signed, so none proves who played it. They leave the archives of the names their
-- seats carry (where anyone could plant a forged match); the matches, their logs and their audits stay, by id.
-- Their importers were not recorded: they are listed in no archive.
DELETE FROM "match_players" WHERE "seat" >= 0 AND "match_id" IN (SELECT "id" FROM "matches" WHERE "imported" AND "import_issuer" IS NULL);
