#!/usr/bin/python3
"""A TLS front for a plaintext XMPP server, for clients that will not log in
without TLS (go-xmpp refuses to authenticate over an unencrypted TCP
connection): it accepts direct TLS (XEP-0368) on --listen and passes the bytes
of each connection unchanged to --to in plaintext, where the capture reads
them. The certificate is self-signed (--cert, --key); the client is told not
to verify it.
"""
import argparse
import asyncio
import ssl


async def pipe(reader, writer):
    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError):
        pass
    finally:
        try:
            writer.close()
        except Exception:
            pass


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--listen", type=int, required=True)
    p.add_argument("--to", type=int, required=True)
    p.add_argument("--cert", required=True)
    p.add_argument("--key", required=True)
    p.add_argument("--ready-file", required=True)
    a = p.parse_args()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(a.cert, a.key)

    async def client(reader, writer):
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", a.to)
        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

    async def serve():
        server = await asyncio.start_server(client, "127.0.0.1", a.listen, ssl=context)
        with open(a.ready_file, "w") as f:
            f.write("ready\n")
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
