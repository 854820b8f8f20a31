/**
 * The parts of ECharts the finance centre's statement chart uses: the core, bar and line
 * charts, grid, tooltip, legend and aria components and the SVG renderer. Loaded by the
 * Statement tab with import(), so it is a chunk of its own, fetched after the page shows.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export { echarts };
