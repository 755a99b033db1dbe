// `npm run admin -- reset-password <email>` | `create-dev <email>`: the operator's commands
// (app/src/admin.ts) on the server's configuration; `npm run admin -- help` explains them.
import { register } from 'tsx/esm/api';

register();
await import('../app/src/admin.ts');
