/** An administrator's task refused, in words (never holding a password or the team key). */
export class TeamAdminError extends Error {
  override name = 'TeamAdminError';
}
