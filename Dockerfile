# syntax=docker/dockerfile:1
# Meritmark: one binary with its assets embedded. v8go links V8 through cgo, so the build
# and the runtime are glibc images (Debian bookworm); the runtime holds the binary, CA
# certificates and nothing else, runs as an unprivileged user, and keeps its data in /data.
#   docker build -t meritmark .
#   docker run -p 8080:8080 -v meritmark-data:/data meritmark

FROM node:20.19-bookworm-slim AS assets
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY esbuild.config.mjs tsconfig.json ./
COPY views ./views
COPY app/model/badge-style.json ./app/model/badge-style.json
COPY static ./static
RUN mkdir -p ssr/dist && node esbuild.config.mjs

FROM golang:1.26.8-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=assets /src/static/dist ./static/dist
COPY --from=assets /src/ssr/dist ./ssr/dist
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/meritmark .

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 meritmark \
 && useradd --system --uid 10001 --gid meritmark --home-dir /data --shell /usr/sbin/nologin meritmark \
 && install -d -o meritmark -g meritmark -m 0700 /data
COPY --from=build /out/meritmark /usr/local/bin/meritmark
USER meritmark
ENV MERITMARK_ADDR=0.0.0.0:8080 \
    MERITMARK_DATA_DIR=/data \
    MERITMARK_SHUTDOWN_DELAY=5s
VOLUME ["/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["/usr/local/bin/meritmark", "health"]
ENTRYPOINT ["/usr/local/bin/meritmark"]
CMD ["serve"]
