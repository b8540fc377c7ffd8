-- Runs once, when the PostgreSQL volume is first initialised (docker-entrypoint-initdb.d), as the
-- superuser. One database and one login role per service: each service owns its database (and so the
-- `public` schema in it, PostgreSQL 15+) and cannot connect to the other's.
-- Passwords come from the container environment (psql 15+ \getenv), set by docker-compose.yml.

\set ON_ERROR_STOP on
\getenv claims_password CLAIMS_DB_PASSWORD
\getenv evidence_password EVIDENCE_DB_PASSWORD

CREATE ROLE claims LOGIN PASSWORD :'claims_password';
CREATE ROLE evidence LOGIN PASSWORD :'evidence_password';

CREATE DATABASE claims OWNER claims;
CREATE DATABASE evidence OWNER evidence;

REVOKE ALL ON DATABASE claims FROM PUBLIC;
REVOKE ALL ON DATABASE evidence FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE claims TO claims;
GRANT CONNECT, TEMPORARY ON DATABASE evidence TO evidence;
