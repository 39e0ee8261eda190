-- The dashboard's "Send test event" (docs/webhooks.md, "Test events"): a webhook.test event goes
-- to one endpoint only and never into the feed, so it has no row in `events`; its delivery
-- carries the event body itself. NULL for every other delivery, whose body is its event's.
ALTER TABLE webhook_deliveries ADD COLUMN body TEXT;
-- Test deliveries have no event for the retention purge to take them with: the purge finds the
-- expired ones by age here, without walking every delivery.
CREATE INDEX deliveries_test_by_created ON webhook_deliveries (created_at) WHERE body IS NOT NULL;
