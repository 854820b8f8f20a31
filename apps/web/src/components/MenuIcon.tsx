import {
  AlertOutlined,
  AppstoreOutlined,
  BarChartOutlined,
  DesktopOutlined,
  HomeOutlined,
  IdcardOutlined,
  LayoutOutlined,
  NotificationOutlined,
  PictureOutlined,
  QuestionCircleOutlined,
  ShopOutlined,
  SkinOutlined,
  SlidersOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** Icon names of the route table and the menu sections (packages/protocol routes.ts). */
const BY_NAME: Record<string, ComponentType<{ className?: string }>> = {
  home: HomeOutlined,
  advert: NotificationOutlined,
  device: DesktopOutlined,
  user: TeamOutlined,
  operate: SlidersOutlined,
  report: BarChartOutlined,
  shop: ShopOutlined,
  my: IdcardOutlined,
  alarm: AlertOutlined,
  help: QuestionCircleOutlined,
};

/** Top-level items that share a section icon but deserve their own in an 80 px rail. */
const BY_CODE: Record<string, ComponentType<{ className?: string }>> = {
  template: LayoutOutlined,
  poster: PictureOutlined,
  skin: SkinOutlined,
};

/** `className` is passed through: antd menus add their icon class to the element they get. */
export function MenuIcon({ code, name, className }: { code: string; name: string; className?: string }) {
  const Icon = BY_CODE[code] ?? BY_NAME[name] ?? AppstoreOutlined;
  return <Icon className={className} />;
}
