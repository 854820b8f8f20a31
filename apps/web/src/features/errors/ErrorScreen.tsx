import { AntdProviders } from '../../app/AntdRoot';
import { ErrorPage } from './ErrorPage';
import NotFoundPage from './NotFoundPage';

/**
 * The error element's page with antd's providers of its own: a route error can happen above
 * the antd root (in the root loader or the layouts).
 */
export default function ErrorScreen({ status, message }: { status: number; message?: string }) {
  return (
    <AntdProviders>{status === 404 ? <NotFoundPage /> : <ErrorPage status={status} message={message} />}</AntdProviders>
  );
}
