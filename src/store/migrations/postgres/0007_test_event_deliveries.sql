-- The PostgreSQL twin of sqlite/0008_test_event_deliveries.sql: a test delivery carries its own
-- event body (it has no row in `events`); NULL for every other delivery.
ALTER TABLE webhook_deliveries ADD COLUMN body TEXT;
CREATE INDEX deliveries_test_by_created ON webhook_deliveries (created_at) WHERE body IS NOT NULL;
