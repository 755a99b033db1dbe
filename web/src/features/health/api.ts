import { HEALTH, type HealthResponse, healthResponse } from '@wa/shared';
import { ApiCallError, request } from '../../api/client';

/** GET /api/health (public): 200 when all is well, 503 with the same report when not. */
export const healthApi = {
  async get(): Promise<HealthResponse> {
    const body = await request(HEALTH.get, { accept: [503], fallback: 'Error fetching health' });
    const parsed = healthResponse.safeParse(body);
    // a proxy's own error page or a different server: no report to show, only that there is none
    if (!parsed.success) throw new ApiCallError('Error fetching health', 0);
    return parsed.data;
  },
};
