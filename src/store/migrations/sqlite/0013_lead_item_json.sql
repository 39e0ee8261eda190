-- Each lead's list-item JSON, kept by every write of the row, so that a list page copies it
-- instead of building it from the columns. Rows written before stay NULL (SQLite's JSON
-- functions do not write numbers as leadline does) and are rendered from their columns when read.
ALTER TABLE leads ADD COLUMN item_json TEXT;
