import { ScanLoginPage } from './ScanLoginPage';

/** /wechatLogin: WeChat scan login on its own page. */
export default function WechatLoginPage() {
  return <ScanLoginPage provider="wechat" />;
}
