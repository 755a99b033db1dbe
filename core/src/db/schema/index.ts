export * from './catalogue';
export * from './levels';
export * from './money';
export * from './proxies';
export * from './settings';
export * from './tools';
export * from './users';
export * from './whatsapp';
