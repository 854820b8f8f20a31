import {
  AppstoreOutlined,
  ClockCircleOutlined,
  CloudOutlined,
  CodeOutlined,
  CustomerServiceOutlined,
  FieldTimeOutlined,
  FontSizeOutlined,
  GlobalOutlined,
  LinkOutlined,
  PictureOutlined,
  QrcodeOutlined,
  StockOutlined,
  VideoCameraOutlined,
  WifiOutlined,
  YoutubeOutlined,
} from '@ant-design/icons';
import type { ComponentType } from '@marquee/layout';
import type { ReactNode } from 'react';

/** The palette's icon of each of the 15 component types. */
export const TYPE_ICONS: Record<ComponentType, ReactNode> = {
  picture: <PictureOutlined />,
  video: <VideoCameraOutlined />,
  music: <CustomerServiceOutlined />,
  text: <FontSizeOutlined />,
  weather: <CloudOutlined />,
  clock: <ClockCircleOutlined />,
  webPage: <GlobalOutlined />,
  browser: <LinkOutlined />,
  button: <AppstoreOutlined />,
  html: <CodeOutlined />,
  liveStream: <YoutubeOutlined />,
  networkSignal: <WifiOutlined />,
  countdown: <FieldTimeOutlined />,
  qrCode: <QrcodeOutlined />,
  shares: <StockOutlined />,
};
