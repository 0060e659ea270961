import { createBrowserRouter } from 'react-router';
import { routes } from './routes';
import { wireRouter } from './wire';

export const router = createBrowserRouter(routes);

wireRouter(router);
