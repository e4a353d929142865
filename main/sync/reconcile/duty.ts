/**
 * Who brings the customers in line with the service when the desk connects: a solo desk does it itself; a
 * team desk leaves it to the team's hub (one set of requests against the rate limit for the whole team).
 * Chosen when the desk is composed (main/variant/).
 */
export interface ReconcileDuty {
  /** At start-up and every reconnection; `reconcileAll` refreshes every customer whose status may change. */
  onConnected(reconcileAll: () => void): void;
}
