-- Rule checks that every insert can answer from an index (filled in by the hardening work).
SELECT 1;
