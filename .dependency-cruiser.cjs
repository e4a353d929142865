// The layering, as rules `npm run lint` checks (docs/ARCHITECTURE.md explains each). dependency-cruiser reads
// every import, type-only ones included (tsPreCompilationDeps), so a rule cannot be dodged with `import type`.
// There is no list of known violations: a rule that does not hold fails the lint.

/**
 * main/'s layers from the top down, as its folders show them: a module may import its own layer or any layer
 * below, never above. Each layer is a name and the paths (regular expressions below `main/`) it holds.
 */
const MAIN_LAYERS = [
  { name: 'hosts', paths: ['hosts/'] }, // Electron's glue and browser mode
  { name: 'compose', paths: ['compose/'] }, // builds a desk or a hub, choosing solo or team once
  { name: 'team-hub', paths: ['team/hub/'] }, // the hub's command line, leadership and process
  { name: 'team', paths: ['team/(?!hub/)'] }, // team mode's implementations (store, team journal, outbox…)
  { name: 'variant', paths: ['variant/'] }, // what differs between solo and team; the solo desk's choices
  // the features: each answers its contract channels, and none knows whether it runs solo or in a team
  { name: 'features', paths: ['features/(?!feature\\.ts$|team-interfaces/)'] },
  // what every feature is built from, and the interfaces of teamwork (claims, roles, approvals) they ask
  { name: 'feature-base', paths: ['features/feature\\.ts$', 'features/team-interfaces/'] },
  { name: 'sync', paths: ['sync/'] }, // the live connection to the service; the journal kept in line with it
  { name: 'failures', paths: ['data/failures\\.ts$'] }, // the one vocabulary of failure, in words
  { name: 'data', paths: ['data/(?!failures\\.ts$)'] }, // the journal and the service client
  { name: 'ground', paths: ['ground/'] }, // settings file, vault, lock, log, crypto, private files…
];
const FEATURES = MAIN_LAYERS.findIndex((layer) => layer.name === 'features');

const folder = (paths) => `^main/(${paths.join('|')})`;
const above = (index) => folder(MAIN_LAYERS.slice(0, index).flatMap((layer) => layer.paths));

const layerRules = MAIN_LAYERS.slice(1).map((layer, index) => ({
  name: `main-layer-${layer.name}`,
  comment: `main/: ${layer.paths.join(', ').replace(/\\/g, '')} must not import the layers above it`,
  severity: 'error',
  from: { path: folder(layer.paths) },
  to: { path: above(index + 1) },
}));

/**
 * The renderer's layers from the top down. The shell (the entry, the app's frame, and shell/, which composes
 * features: the queue with its case and exports, the case with its claim, documents and retry, the lock with
 * every store it clears); the features, each a folder that imports no other; the shared floor (shared/: the
 * case and team stores and the pieces several features show, the data plumbing, windowed lists) with the
 * app's store and routes; main's API; the design system (ui/), which knows no customer, no case and no main.
 */
const RENDERER_LAYERS = [
  ['main\\.tsx', 'App\\.tsx', 'boot\\.ts', 'screens\\.ts', 'ask-first\\.ts', 'host-bridge\\.ts', 'shell'],
  ['features'],
  ['shared', 'store\\.ts', 'route\\.ts'],
  ['api\\.ts', 'browser-transport\\.ts'],
  ['ui'],
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
      to: { path: '^(admin|main|renderer|preload|sandbox)/' },
    },
    {
      name: 'renderer-never-imports-main-or-sandbox',
      comment: 'The renderer is untrusted web content: it reaches main only through window.vetted.',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^(admin|main|preload|sandbox)/' },
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
        "Electron's APIs only in the thin glue: main/hosts/electron/ (main process) and preload/ (the renderer's bridge).",
      severity: 'error',
      from: { pathNot: '^(main/hosts/electron|preload)/' },
      to: { path: '^electron$|node_modules/electron/' },
    },
    {
      name: 'sandbox-reaches-nothing-of-main',
      comment: 'The built-in sandbox is a copy of the service: it knows nothing of the desk.',
      severity: 'error',
      from: { path: '^sandbox/' },
      to: { path: '^(admin|main|renderer|preload)/' },
    },
    {
      name: 'features-know-no-variant',
      comment:
        'Features never import team mode, the composition, the hub or a host: solo or team is chosen when the desk is composed.',
      severity: 'error',
      from: { path: folder(MAIN_LAYERS[FEATURES].paths) },
      to: { path: above(FEATURES) },
    },
    {
      name: 'nothing-imports-the-admin-tool',
      comment:
        "The team administrator's command-line tool (admin/, `npm run team`) stands on main/; nothing of the app imports it.",
      severity: 'error',
      from: { path: '^(main|contract|renderer|preload|sandbox)/' },
      to: { path: '^admin/' },
    },
    {
      name: 'renderer-features-are-independent',
      comment:
        'A renderer feature never imports another: what several show sits on the shared floor (renderer/src/shared/), and where two meet the shell composes them (renderer/src/shell/).',
      severity: 'error',
      from: { path: '^renderer/src/features/([^/]+)/' },
      to: { path: '^renderer/src/features/', pathNot: '^renderer/src/features/$1/' },
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
