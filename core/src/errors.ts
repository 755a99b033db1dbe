/** An error with an HTTP status and a message meant for the user; the handler sends `{msg}`. */
export class AppError extends Error {
  constructor(
    public readonly status: number,
    msg: string,
    public readonly errors?: Record<string, string>,
    /** a machine-readable reason the UI reacts to (sent as `code`) */
    public readonly code?: number,
  ) {
    super(msg);
  }
}

export const badRequest = (msg: string, errors?: Record<string, string>) => new AppError(400, msg, errors);
export const unauthorized = (msg = 'Invalid or expired token') => new AppError(401, msg);
export const forbidden = (msg = 'You are not allowed to do this.') => new AppError(403, msg);
export const notFound = (msg = 'Not found') => new AppError(404, msg);
export const conflict = (msg: string, errors?: Record<string, string>) => new AppError(409, msg, errors);
