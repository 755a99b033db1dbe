/** Single-row writers of phone numbers take this advisory lock; imports need none (chunked INSERT … ON CONFLICT). */
export const PHONE_INSERT_LOCK = 727_274_101;
