-- The language a player chose for the web client (issue 47): en, it, fr, es or ar; null: none chosen.

-- AlterTable
ALTER TABLE "player_settings" ADD COLUMN     "language" TEXT;
