-- AlterTable
ALTER TABLE "matches" ADD COLUMN     "imported" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "source_hash" TEXT,
ADD COLUMN     "source_id" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "matches_source_id_source_hash_key" ON "matches"("source_id", "source_hash");
