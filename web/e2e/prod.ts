/*
 * The browser tests' two servers: the test server (env test, demo offices)
 * and a server in env prod set up as an operator would for a real practice
 * (playwright.config.ts starts both; README.md, "Running it for a real
 * practice").
 */
export const PORT = Number(process.env.E2E_PORT ?? 18931);
export const PROD_PORT = PORT + 1;
/** Maple Street Dental of examples/offices.yaml. */
export const PROD_ENTITY_KEY = '4815162342000001';
export const PROD_STAFF = { email: 'desk@maplestreet.example', password: 'maple street front desk' };
