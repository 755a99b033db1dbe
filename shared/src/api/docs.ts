import { routes } from './define';

/** /: to be declared (issue 21). */
export const DOCS = routes('docs', '', {});
