/** Years 1000–9999: what PostgreSQL stores as a date without surprise (year 0000 does not exist there). */
export const YEAR_1000_TO_9999 = '^[1-9][0-9]{3}-';
/** Text PostgreSQL can store: no NUL characters. */
export const NO_NUL = '^[^\\u0000]*$';
