-- CreateTable
CREATE TABLE "teams" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "open" BOOLEAN NOT NULL DEFAULT true,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "member_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "teams_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_members" (
    "team_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'member',
    "joined_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_members_pkey" PRIMARY KEY ("team_id","account_id")
);

-- CreateTable
CREATE TABLE "team_requests" (
    "team_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_requests_pkey" PRIMARY KEY ("team_id","account_id")
);

-- CreateTable
CREATE TABLE "team_kicks" (
    "team_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "kicked_by" TEXT NOT NULL,
    "kicked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_kicks_pkey" PRIMARY KEY ("team_id","account_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "teams_name_key_key" ON "teams"("name_key");

-- CreateIndex
CREATE INDEX "team_members_account_id_idx" ON "team_members"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "team_members_team_id_username_key" ON "team_members"("team_id", "username");

-- CreateIndex
CREATE INDEX "team_requests_account_id_idx" ON "team_requests"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "team_requests_team_id_username_key" ON "team_requests"("team_id", "username");

-- AddForeignKey
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_requests" ADD CONSTRAINT "team_requests_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_kicks" ADD CONSTRAINT "team_kicks_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;
