// Import rules of the code base, checked by dependency-cruiser in `npm test` (step 依赖规则 dependency rules) and by
// `npm run deps:check` (docs/architecture.md "Import rules"; the module shape is ../shared/notes/module-layout.md).
//
// No violation is tolerated: there is no known-violations list. (The last two, customer → finance's ledger, went when
// card delivery was inverted: customer registers it with finance, server/finance/cardFulfilment.ts.)

/** The business modules: server/<module>/ on the server, src/modules/<module>/ in the console (docs/architecture.md "One home per module"). */
const MODULES = 'system|content|customer|finance|service|monitor|home|volunteer|tool|gen|toolbox';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only and lazy imports included: every file of a circle depends on every other one.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'console-not-server',
      comment: 'The console (src/) never imports server code; what both sides need lives in common/.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^server/' },
    },
    {
      name: 'server-not-console',
      comment: 'The server never imports console code; what both sides need lives in common/.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^src/' },
    },
    {
      name: 'common-imports-neither-side',
      comment: 'common/ is used by both sides, so it imports neither.',
      severity: 'error',
      from: { path: '^common/' },
      to: { path: '^(src|server)/' },
    },
    {
      name: 'server-module-facade',
      comment: 'A server module reaches another module only through its facade, server/<module>/index.ts.',
      severity: 'error',
      from: { path: `^server/(${MODULES})/` },
      to: { path: `^server/(${MODULES})/`, pathNot: ['^server/$1/', `^server/(${MODULES})/index\\.ts$`] },
    },
    {
      name: 'infrastructure-imports-no-module',
      comment:
        "Infrastructure every module uses (http, security, storage, sms, cache, db, engine) imports no business module; the seed, which writes every module's demo data, is the one exception.",
      severity: 'error',
      from: { path: '^server/(http|security|storage|sms|cache|db|engine)/', pathNot: '^server/db/seed/' },
      to: { path: `^server/(${MODULES})/` },
    },
    {
      name: 'console-module-facade',
      comment: 'A console module reaches another only through the parts it lends to other screens, src/modules/<module>/shared/.',
      severity: 'error',
      from: { path: `^src/modules/(${MODULES})/` },
      to: { path: `^src/modules/(${MODULES})/`, pathNot: ['^src/modules/$1/', `^src/modules/(${MODULES})/shared/`] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: the server's one big circle was closed by type imports alone.
    tsPreCompilationDeps: true,
    // The @/ and @common/ paths of the console.
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
