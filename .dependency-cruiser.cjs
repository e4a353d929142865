// The layering, as rules `npm run lint` checks (docs/ARCHITECTURE.md explains each). dependency-cruiser reads
// every import, type-only ones included (tsPreCompilationDeps), so a rule cannot be dodged with `import type`.
// There is no list of known violations: a rule that does not hold fails the lint.

/**
 * main/'s layers from the top down: a module may import its own layer or any layer below, never above. A name
 * ending in `/` is a folder and everything in it; any other, one file.
 */
const MAIN_LAYERS = [
  ['electron/', 'browser/'], // the two hosts
  ['compose/'], // builds a desk or a hub, choosing solo or team once
  ['hub/'], // the hub's command line, leadership and process
  ['team/'], // team mode's implementations (store, team journal, team outbox, membership, admin)
  ['variant/'], // what differs between solo and team, one interface per concern; the local (solo) desk
  // features: each answers its contract channels, and none knows whether it runs solo or in a team
  [
    'drafts/',
    'customers/',
    'case/',
    'queue/',
    'webhooks/',
    'updates/',
    'diagnostics/',
    'sandbox-link/',
    'claims/',
    'approvals/',
    'settings/',
    'idle-lock/',
  ],
  ['feature\\.ts', 'teamwork/'], // what every feature is built from; the teamwork interfaces (claims, roles, approvals)
  ['reconcile/', 'connection/'], // the journal kept in line with the service; the live connection to it
  ['failures\\.ts'], // the one vocabulary of failure, in words
  ['journal/', 'service/'],
  // the ground floor
  [
    'host/',
    'config/', // the settings file, and what it keeps
    'vault/',
    'lock/', // the desk's idle lock: its state, secret hash and the channel gate
    'log/',
    'crypto\\.ts',
    'private-files\\.ts',
    'event-hub\\.ts',
    'serve\\.ts',
    'jitter\\.ts',
    'os-user\\.ts',
  ],
];
const FEATURES = 5;

const folder = (names) => `^main/(${names.join('|')})`;

const layerRules = MAIN_LAYERS.slice(1).map((layer, index) => ({
  name: `main-layer-${layer[0].replace(/[\\/]|\(.*$/g, '')}`,
  comment: `main/: ${layer.join(', ').replace(/\\\./g, '.')} must not import the layers above it`,
  severity: 'error',
  from: { path: folder(layer) },
  to: { path: folder(MAIN_LAYERS.slice(0, index + 1).flat()) },
}));

/** The renderer's layers from the top down: the shell, the features, the app's store and routes, the design system. */
const RENDERER_LAYERS = [
  ['main\\.tsx', 'App\\.tsx', 'boot\\.ts', 'screens\\.ts', 'ask-first\\.ts'],
  ['features'],
  ['store\\.ts', 'route\\.ts', 'sections\\.ts'],
  ['ui'],
  ['api\\.ts', 'browser-transport\\.ts'],
];
const rendererFolder = (names) => `^renderer/src/(${names.join('|')})($|/)`;
const rendererRules = RENDERER_LAYERS.slice(1).map((layer, index) => ({
  name: `renderer-layer-${layer[0].replace(/\\\./g, '.')}`,
  comment: `renderer/: ${layer.join(', ').replace(/\\\./g, '.')} must not import the layers above it`,
  severity: 'error',
  from: { path: rendererFolder(layer) },
  to: { path: rendererFolder(RENDERER_LAYERS.slice(0, index + 1).flat()) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycles, type-only ones included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-nothing-of-the-app',
      comment:
        'The contract is shared by every process: it imports nothing of main, renderer, preload or sandbox.',
      severity: 'error',
      from: { path: '^contract/' },
      to: { path: '^(main|renderer|preload|sandbox)/' },
    },
    {
      name: 'renderer-never-imports-main-or-sandbox',
      comment: 'The renderer is untrusted web content: it reaches main only through window.vetted.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(main|preload|sandbox)/' },
    },
    {
      name: 'renderer-without-node',
      comment: 'The renderer runs in a browser: no Node built-ins.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'electron-only-in-the-glue',
      comment:
        "Electron's APIs only in the thin glue: main/electron/ (main process) and preload/ (the renderer's bridge).",
      severity: 'error',
      from: { pathNot: '^(main/electron|preload)/' },
      to: { path: '^electron$|node_modules/electron/' },
    },
    {
      name: 'sandbox-reaches-nothing-of-main',
      comment: 'The built-in sandbox is a copy of the service: it knows nothing of the desk.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^(main|renderer|preload)/' },
    },
    {
      name: 'features-know-no-variant',
      comment:
        'Features never import team mode, the composition, the hub or a host: solo or team is chosen when the desk is composed.',
      severity: 'error',
      from: { path: folder(MAIN_LAYERS[FEATURES]) },
      to: { path: folder(MAIN_LAYERS.slice(0, FEATURES).flat()) },
    },
    ...layerRules,
    ...rendererRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|out|dist|release|test-results)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
