-- Written by hand (a trigger has no schema.prisma form): a ruleset version
-- that a match uses (locked_at set, by the statement that creates the match)
-- never changes again. The service's save never updates a locked row; this
-- makes the database refuse it too, whoever writes.
CREATE FUNCTION "rulesets_locked_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW IS DISTINCT FROM OLD THEN
    RAISE EXCEPTION 'ruleset % version % is used by a match: it cannot change', OLD.name, OLD.version USING ERRCODE = 'restrict_violation';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "rulesets_no_update_once_locked" BEFORE UPDATE ON "rulesets"
  FOR EACH ROW WHEN (OLD.locked_at IS NOT NULL) EXECUTE FUNCTION "rulesets_locked_immutable"();
