-- Custom SQL migration file, put your code below! --
-- Existing endpoints: one that took only test.completed becomes a test-result (certification)
-- endpoint; every other one stays a competition endpoint and no longer lists test.completed
-- (competition endpoints never receive it; an empty list now means the nine competition events).
UPDATE "webhook_endpoints" SET "service" = 'certification', "events" = ARRAY['test.completed']::text[]
  WHERE cardinality("events") > 0 AND "events" <@ ARRAY['test.completed']::text[];
--> statement-breakpoint
UPDATE "webhook_endpoints" SET "events" = array_remove("events", 'test.completed')
  WHERE "service" = 'competition' AND 'test.completed' = ANY("events");
