import { ErrorPage } from '../features/errors/ErrorPage';
import NotFoundPage from '../features/errors/NotFoundPage';
import { AntdProviders } from './AntdRoot';

/**
 * The error element's page with antd's providers of its own: a route error can happen above
 * the antd root (in the root loader or the layouts).
 */
export default function ErrorScreen({ status, message }: { status: number; message?: string }) {
  return (
    <AntdProviders>{status === 404 ? <NotFoundPage /> : <ErrorPage status={status} message={message} />}</AntdProviders>
  );
}
