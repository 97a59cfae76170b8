# Sente on an empty image: one statically linked binary, running as a non-root user.
#
#   docker build -t sente .
#   docker run -p 8080:8080 sente
#
# The build stage compiles the binary with --locked and a static C runtime; the final stage
# holds nothing else. To package a binary built outside (CI does: it has no registry to pull
# the Rust image from), put it at ./sente in the build context and pass
# --build-arg BINARY=prebuilt.

ARG BINARY=build

FROM rust:1.95.0-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN RUSTFLAGS='-C target-feature=+crt-static' \
    CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true \
        cargo build --release --locked --target x86_64-unknown-linux-gnu \
    && mkdir /out \
    && cp target/x86_64-unknown-linux-gnu/release/sente /out/sente

FROM scratch AS prebuilt
COPY sente /out/sente

# The stage the binary comes from: "build" or "prebuilt" above.
FROM ${BINARY} AS binary

FROM scratch
COPY --from=binary /out/sente /sente
# nobody:nogroup; scratch has no /etc/passwd, so the ids are numeric.
USER 65534:65534
# PORT is what container platforms set; the service listens on 0.0.0.0:$PORT.
ENV PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=2s --retries=3 \
    CMD ["/sente", "healthcheck"]
ENTRYPOINT ["/sente"]
CMD ["serve"]
