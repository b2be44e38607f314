-- Post-game analysis (docs/analysis.md, issue 42): a second pg-boss queue, "analysis-large", for the analyses of
-- more than ANALYSIS_LARGE_DECISIONS decisions, run by workers of their own (ANALYSIS_LARGE_WORKERS), so that a long
-- analysis never holds the workers of the short ones. Options set again at each start from ANALYSIS_* variables.
SELECT pgboss.create_queue('analysis-large', '{"policy":"standard","retryLimit":3,"retryDelay":5,"retryBackoff":true,"expireInSeconds":900}'::json);
