export { createApp } from './app';
export { ensureAdmin, ensureSettings } from './bootstrap';
export { loadConfig } from './config';
export { type Database, type Db, openDatabase } from './db/client';
export { createLogger } from './logger';
