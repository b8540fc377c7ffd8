-- Runs once, when the PostgreSQL volume is first initialised (docker-entrypoint-initdb.d), as the
-- superuser. Per service, one database and two login roles:
--   <service>_migrator  owns the database (and so its `public` schema, PostgreSQL 15+) and every table;
--                       used only by the one-shot `migrate` service, which applies migrations and then
--                       grants the runtime role its privileges (re-computed after every migration run);
--   <service>           the role the service runs as: owns nothing, may only connect; the grant step
--                       gives it SELECT/INSERT/UPDATE/DELETE on ordinary tables and SELECT/INSERT alone
--                       on append-only ones (the audit log), so it cannot alter a table, disable its
--                       triggers, truncate or rewrite it.
-- No role can connect to the other service's database. Passwords come from the container environment
-- (psql 15+ \getenv), set by docker-compose.yml.

\set ON_ERROR_STOP on
\getenv claims_password CLAIMS_DB_PASSWORD
\getenv evidence_password EVIDENCE_DB_PASSWORD
\getenv claims_migrator_password CLAIMS_MIGRATOR_DB_PASSWORD
\getenv evidence_migrator_password EVIDENCE_MIGRATOR_DB_PASSWORD

CREATE ROLE claims_migrator LOGIN PASSWORD :'claims_migrator_password';
CREATE ROLE evidence_migrator LOGIN PASSWORD :'evidence_migrator_password';
CREATE ROLE claims LOGIN PASSWORD :'claims_password';
CREATE ROLE evidence LOGIN PASSWORD :'evidence_password';

CREATE DATABASE claims OWNER claims_migrator;
CREATE DATABASE evidence OWNER evidence_migrator;

REVOKE ALL ON DATABASE claims FROM PUBLIC;
REVOKE ALL ON DATABASE evidence FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE claims TO claims_migrator;
GRANT CONNECT, TEMPORARY ON DATABASE evidence TO evidence_migrator;
GRANT CONNECT ON DATABASE claims TO claims;
GRANT CONNECT ON DATABASE evidence TO evidence;
