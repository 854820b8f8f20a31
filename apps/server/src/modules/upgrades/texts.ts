export const UpgradeText = {
  packageNotFound: {
    'zh-CN': '升级包不存在',
    'en-US': 'The upgrade package does not exist',
    ja: 'アップグレードパッケージが存在しません',
  },
  rolloutNotFound: {
    'zh-CN': '升级任务不存在',
    'en-US': 'The rollout does not exist',
    ja: 'ロールアウトが存在しません',
  },
};

/** Why the server halted a rollout (stored in English; the console shows its own words). */
export const THRESHOLD_HALT = 'failure threshold passed';
/** A device that never acknowledged its command in time. */
export const EXPIRED_REASON = 'the device did not answer in time';
