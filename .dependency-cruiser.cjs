// The one direction of imports between our packages (docs/ARCHITECTURE.md, "Packages"):
//   shared ← core ← server ← app,   core ← workers ← app,   shared ← web
// `npm run check` fails on an import against it. Tests and benchmarks may import anything.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'shared-stands-alone',
      comment: 'shared/ is the API contract used by browser and server alike: it imports nothing of ours',
      severity: 'error',
      from: { path: '^shared/src' },
      to: { path: '^(core|server|workers|app|web)/' },
    },
    {
      name: 'core-below-server-and-workers',
      comment: 'core/ is what the API and the workers share; it knows neither of them',
      severity: 'error',
      from: { path: '^core/src' },
      to: { path: '^(server|workers|app|web)/' },
    },
    {
      name: 'server-without-engine',
      comment: 'the API reaches the engine over the bus and the queue, never by import',
      severity: 'error',
      from: { path: '^server/src' },
      to: { path: '^(workers|app|web)/' },
    },
    {
      name: 'workers-without-server',
      comment: 'workers depend on core and shared only, never on server modules or http/',
      severity: 'error',
      from: { path: '^workers/src' },
      to: { path: '^(server|app|web)/' },
    },
    {
      name: 'web-only-shared',
      comment: 'the dashboard talks to the server over HTTP; of our code it imports shared/ only',
      severity: 'error',
      from: { path: '^web/src' },
      to: { path: '^(core|server|workers|app)/' },
    },
    {
      name: 'http-is-for-routes',
      comment: 'services and repositories never touch Express: http/ is for routes and app.ts',
      severity: 'error',
      from: { path: '^server/src/modules/.+[.](service|repo)[.]ts$' },
      to: { path: '^server/src/http/' },
    },
    {
      name: 'no-cycles',
      comment:
        'no module imports itself back, not even through type-only imports: a type-only cycle is two modules that know each other, the design smell a port (a narrow interface the importer owns) removes',
      severity: 'error',
      from: { path: '^(shared|core|server|workers|app|web)/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|[.]test[.]tsx?$|^web/dist' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'server/tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'],
    },
    combinedDependencies: true,
  },
};
