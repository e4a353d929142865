import type { ProfileName } from '../profile-types.ts';
import type { Profile } from '../types.ts';
import { interfaceProfile } from './interface.ts';
import { realProfile } from './real.ts';

export { PROFILE_NAMES, type ProfileName } from '../profile-types.ts';

const PROFILES: Record<ProfileName, Profile> = { interface: interfaceProfile, real: realProfile };

export function profileNamed(name: ProfileName): Profile {
  return PROFILES[name];
}
