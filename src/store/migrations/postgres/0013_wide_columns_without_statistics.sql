-- No statistics for the two wide columns no statement filters, sorts or joins on: a lead's
-- list-item JSON and an event's body (about 500 bytes each). ANALYZE read, detoasted and
-- compared them on every sampled row for nothing: each import runs it twice (in its
-- transaction, and with the VACUUM after its commit), and autovacuum after enough writes.
-- Measured on 311k leads and 631k events: ANALYZE leads 820-1,022 -> 545-752 ms, events
-- 590-632 -> 366-379 ms.
ALTER TABLE leads ALTER COLUMN item_json SET STATISTICS 0;
ALTER TABLE events ALTER COLUMN body SET STATISTICS 0;
