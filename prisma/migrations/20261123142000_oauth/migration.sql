-- CreateTable
CREATE TABLE "session_refresh_tokens" (
    "token_hash" TEXT NOT NULL,
    "session_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "session_refresh_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "oauth_apps" (
    "id" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "redirect_uris" TEXT[],
    "confidential" BOOLEAN NOT NULL,
    "secret_salt" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_apps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth_payloads" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "uid" TEXT,
    "account_id" TEXT,
    "client_id" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_payloads_pkey" PRIMARY KEY ("model","id")
);

-- CreateIndex
CREATE INDEX "session_refresh_tokens_session_id_idx" ON "session_refresh_tokens"("session_id");

-- CreateIndex
CREATE INDEX "oauth_apps_owner_id_idx" ON "oauth_apps"("owner_id");

-- CreateIndex
CREATE INDEX "oauth_payloads_grant_id_idx" ON "oauth_payloads"("grant_id");

-- CreateIndex
CREATE INDEX "oauth_payloads_uid_idx" ON "oauth_payloads"("uid");

-- CreateIndex
CREATE INDEX "oauth_payloads_model_account_id_idx" ON "oauth_payloads"("model", "account_id");

-- CreateIndex
CREATE INDEX "oauth_payloads_expires_at_idx" ON "oauth_payloads"("expires_at");

-- AddForeignKey
ALTER TABLE "session_refresh_tokens" ADD CONSTRAINT "session_refresh_tokens_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
