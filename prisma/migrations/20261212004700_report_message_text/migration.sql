-- A message report keeps the reported chat message's text as it was when reported (its author in target_username
-- and target_account_id), so that the moderator reads what was reported even once the message is removed or swept
-- (issue 46, docs/social.md "Reports and moderation").
ALTER TABLE "reports" ADD COLUMN "target_message_text" TEXT;
