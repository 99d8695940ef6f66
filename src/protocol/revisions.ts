// The protocol revisions Parley serves, and the era each belongs to.
export const MODERN_VERSION = '2026-07-28';
/** Revisions served with initialize and sessions, newest first. */
export const LEGACY_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
/** What this build serves, newest first. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const isLegacyVersion = (version: string): boolean => (LEGACY_VERSIONS as readonly string[]).includes(version);
