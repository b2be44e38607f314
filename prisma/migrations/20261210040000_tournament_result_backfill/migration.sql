-- Written by hand (issue 44, docs/operations.md "Background work"): the tournament tables whose match ended
-- before 20261210010000_durable_reactions queued a 'tournament-result' job with each table's end, and whose result
-- is still not recorded (an instance that died between the end and its recording), get their job now, once:
-- the key is the trigger's (<match>:<seq of the end>), so a job already queued is left as it is. This replaces the
-- tournament scheduler's recovery sweep: every end has its job from here on.
SELECT scopa_enqueue_job('tournament-result', m.id || ':' || m.current_seq, jsonb_build_object('matchId', m.id, 'seq', m.current_seq), NULL)
FROM tournament_tables t JOIN matches m ON m.id = t.match_id
WHERE NOT t.recorded AND m.status = 'over' AND NOT m.imported;
