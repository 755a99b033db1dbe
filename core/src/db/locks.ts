/** Every writer that inserts phone numbers takes this advisory lock (imports rely on it). */
export const PHONE_INSERT_LOCK = 727_274_101;
