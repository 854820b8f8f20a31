import type { LocalizedText } from '../../protocol/appError.js';

/** Texts of the access module whose message says more than the code's catalogue text. */
export const accessMessages = {
  resendWait(seconds: number): LocalizedText {
    return {
      'zh-CN': `验证码已发送，请 ${seconds} 秒后再试`,
      'en-US': `A code was just sent. Please wait ${seconds} seconds before asking for another`,
      ja: `認証コードを送信済みです。${seconds} 秒後に再度お試しください`,
    };
  },
  phoneTaken: {
    'zh-CN': '该手机号码已被注册',
    'en-US': 'This mobile number is already registered',
    ja: 'この携帯電話番号は既に登録されています',
  },
  loginNameTaken: {
    'zh-CN': '该登录账号已存在',
    'en-US': 'This login account already exists',
    ja: 'このログインアカウントは既に存在します',
  },
  creditCodeTaken: {
    'zh-CN': '该统一社会信用代码已注册',
    'en-US': 'This social credit code is already registered',
    ja: 'この統一社会信用コードは既に登録されています',
  },
  scanNotRegistered: {
    'zh-CN': '该微信或钉钉账号未注册，请先注册',
    'en-US': 'This WeChat or DingTalk account is not registered. Please register first',
    ja: 'この WeChat または DingTalk アカウントは登録されていません。先に登録してください',
  },
  identityTaken: {
    'zh-CN': '该微信或钉钉账号已绑定其他账号',
    'en-US': 'This WeChat or DingTalk account is already bound to another account',
    ja: 'この WeChat または DingTalk アカウントは別のアカウントに連携済みです',
  },
  scanNotReady: {
    'zh-CN': '扫码尚未完成或已失效，请重新扫码',
    'en-US': 'The scan is not complete or has expired. Please scan again',
    ja: 'スキャンが完了していないか期限切れです。もう一度スキャンしてください',
  },
  wrongOldPassword: {
    'zh-CN': '原密码错误',
    'en-US': 'The current password is wrong',
    ja: '現在のパスワードが正しくありません',
  },
  samePassword: {
    'zh-CN': '新密码不能与原密码相同',
    'en-US': 'The new password must differ from the current one',
    ja: '新しいパスワードは現在のものと異なる必要があります',
  },
} as const;
