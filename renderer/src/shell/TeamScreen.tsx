import { TeamScreen as Team } from '#renderer/features/team/TeamScreen.tsx';
import { TrendsPanel } from '#renderer/features/trends/TrendsPanel.tsx';

/** The lead's Team screen with the team's trends, which belong to the trends feature. */
export function TeamScreen() {
  return <Team trends={<TrendsPanel scope="team" />} />;
}
