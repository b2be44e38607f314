-- CreateTable
CREATE TABLE "tournaments" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'created',
    "created_by" TEXT NOT NULL,
    "visibility" TEXT NOT NULL DEFAULT 'public',
    "settings" JSONB NOT NULL,
    "starts_at" TIMESTAMPTZ(3),
    "current_seq" INTEGER NOT NULL DEFAULT 0,
    "last_hash" TEXT NOT NULL,
    "master_seed" TEXT,
    "round" INTEGER NOT NULL DEFAULT 0,
    "player_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournaments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tournament_players" (
    "tournament_id" UUID NOT NULL,
    "player" TEXT NOT NULL,
    "withdrawn" BOOLEAN NOT NULL DEFAULT false,
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tournament_players_pkey" PRIMARY KEY ("tournament_id","player")
);

-- CreateTable
CREATE TABLE "tournament_events" (
    "tournament_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "actor" TEXT,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "tournament_events_pkey" PRIMARY KEY ("tournament_id","seq")
);

-- CreateTable
CREATE TABLE "tournament_tables" (
    "tournament_id" UUID NOT NULL,
    "round" INTEGER NOT NULL,
    "table_no" INTEGER NOT NULL,
    "match_id" UUID,
    "players" TEXT[],
    "recorded" BOOLEAN NOT NULL DEFAULT false,
    "round_ended" BOOLEAN NOT NULL DEFAULT false,
    "duplicate" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "tournament_tables_pkey" PRIMARY KEY ("tournament_id","round","table_no")
);

-- CreateIndex
CREATE INDEX "tournaments_status_created_at_id_idx" ON "tournaments"("status", "created_at", "id");

-- CreateIndex
CREATE INDEX "tournaments_status_starts_at_idx" ON "tournaments"("status", "starts_at");

-- CreateIndex
CREATE INDEX "tournament_players_player_idx" ON "tournament_players"("player");

-- CreateIndex
CREATE UNIQUE INDEX "tournament_tables_match_id_key" ON "tournament_tables"("match_id");

-- CreateIndex
CREATE INDEX "tournament_tables_recorded_idx" ON "tournament_tables"("recorded");

-- AddForeignKey
ALTER TABLE "tournament_players" ADD CONSTRAINT "tournament_players_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_events" ADD CONSTRAINT "tournament_events_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tournament_tables" ADD CONSTRAINT "tournament_tables_tournament_id_fkey" FOREIGN KEY ("tournament_id") REFERENCES "tournaments"("id") ON DELETE CASCADE ON UPDATE CASCADE;
