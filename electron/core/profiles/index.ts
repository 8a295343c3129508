// The profiles module's door: what the other core modules use of it (eslint/core-modules.js, layers/imports).
export {
  createProfile,
  deleteProfile,
  getProfile,
  listProfiles,
  type Profile,
  type ProfileSelection,
  type ProfileSwitch,
  updateProfile,
} from './profiles-table';
export { deleteSetting, getSetting, setSetting, SETTING_KEYS } from './settings-table';
export { ProfileChoice } from './selection';
