-- Chat (issue 46, docs/social.md "Chat"): one row per message of any room, plain text, kept CHAT_RETENTION_DAYS
-- (the "chat sweep" task deletes older rows). Not part of any match's hash-chained log.

-- CreateTable
CREATE TABLE "chat_messages" (
    "id" UUID NOT NULL,
    "room" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "author_id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removed_at" TIMESTAMPTZ(3),
    "removed_by" TEXT,

    CONSTRAINT "chat_messages_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "chat_messages_room_sent_at_id_idx" ON "chat_messages"("room", "sent_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "chat_messages_sent_at_idx" ON "chat_messages"("sent_at");
