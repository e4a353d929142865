// main.tsx imports this module first: the questions leave while the rest of the bundle (React's DOM,
// every screen) is still being evaluated, so main's answers and the page's own start-up overlap.
import { startAsking } from './boot.ts';
import { hostApi } from './host-bridge.ts';

startAsking(hostApi());
