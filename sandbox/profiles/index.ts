import { interfaceProfile } from './interface.ts';
import type { Profile, ProfileName } from './profile.ts';
import { realProfile } from './real.ts';

export { PROFILE_NAMES, type Profile, type ProfileName } from './profile.ts';

const PROFILES: Record<ProfileName, Profile> = { interface: interfaceProfile, real: realProfile };

export function profileNamed(name: ProfileName): Profile {
  return PROFILES[name];
}
