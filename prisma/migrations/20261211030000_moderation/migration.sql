-- Reports and moderation (issue 46, src/moderation/, docs/social.md "Reports and moderation").

-- A ban: set by a moderator through auth (src/auth/account-bans.ts); login is refused and every credential ends.
ALTER TABLE "accounts" ADD COLUMN "banned_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "account_roles" (
    "account_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "granted_by" TEXT NOT NULL,
    "granted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "account_roles_pkey" PRIMARY KEY ("account_id","role")
);

-- CreateTable
CREATE TABLE "reports" (
    "id" UUID NOT NULL,
    "reporter_id" UUID NOT NULL,
    "reporter" TEXT NOT NULL,
    "target_kind" TEXT NOT NULL,
    "target_account_id" UUID,
    "target_username" TEXT,
    "target_message_id" UUID,
    "target_match_id" UUID,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),
    "resolved_by" TEXT,
    "resolution" TEXT,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reports_status_created_at_id_idx" ON "reports"("status", "created_at", "id");

-- CreateTable
CREATE TABLE "mutes" (
    "account_id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL,
    "muted_by" TEXT NOT NULL,
    "muted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mutes_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "moderation_log" (
    "id" UUID NOT NULL,
    "current_seq" INTEGER NOT NULL DEFAULT 0,
    "last_hash" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "moderation_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "moderation_events" (
    "log_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "actor" TEXT,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "prev_hash" TEXT NOT NULL,
    "hash" TEXT NOT NULL,

    CONSTRAINT "moderation_events_pkey" PRIMARY KEY ("log_id","seq")
);

-- The one moderation log (src/moderation/moderation-log.ts MODERATION_LOG_ID), empty: 64 zeros before its first event.
INSERT INTO "moderation_log" ("id", "current_seq", "last_hash") VALUES ('00000000-0000-4000-8000-000000000046', 0, repeat('0', 64));
