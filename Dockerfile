FROM node:20
WORKDIR /app
COPY package.json package-lock.json ./
# `npm install`, not `npm ci` (see README / stack notes)
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build
ENV NODE_ENV=production PORT=3000
EXPOSE 3000
# the flags of src/node-flags.ts
CMD ["node", "--heap-growing-percent=200", "dist/main.js"]
