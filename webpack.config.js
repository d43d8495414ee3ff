// Nest CLI hands us its default server config; we bundle our own libs (the @sc/* aliases),
// keep node_modules external, and compile with swc instead of ts-loader (type checking is `npm run typecheck`).
const path = require('node:path');
const nodeExternals = require('webpack-node-externals');

const libs = ['contracts', 'database', 'device-runtime', 'i18n', 'messaging', 'schedule', 'testing'];

module.exports = (options) => ({
  ...options,
  devtool: 'source-map',
  externals: [nodeExternals({ allowlist: [/^@sc\//] })],
  resolve: {
    ...options.resolve,
    extensions: ['.ts', '.js', '.json'],
    alias: Object.fromEntries(libs.map((lib) => [`@sc/${lib}`, path.resolve(__dirname, `libs/${lib}/src`)])),
    plugins: [],
  },
  module: {
    rules: [
      {
        test: /\.ts$/,
        exclude: /node_modules/,
        use: { loader: 'swc-loader', options: JSON.parse(require('node:fs').readFileSync(path.join(__dirname, '.swcrc'), 'utf8')) },
      },
    ],
  },
  plugins: (options.plugins || []).filter((p) => p.constructor.name !== 'ForkTsCheckerWebpackPlugin'),
  output: { ...options.output, devtoolModuleFilenameTemplate: '[absolute-resource-path]' },
});
