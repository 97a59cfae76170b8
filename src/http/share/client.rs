//! Who a request comes from: its API key where keys are configured and it gives one, else its
//! address. Behind a reverse proxy every request comes from the proxy's address, so the client
//! is then read from the proxy's `Forwarded` or `X-Forwarded-For`, but only where the operator
//! names the proxy as trusted (`--trusted-proxy`): anyone can write those headers, and a
//! service that believed them from anyone would let a client be whoever it liked.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};

use axum::http::HeaderMap;

use super::limits::ClientLimits;

/// One client, as its limits and its share of the heavy slots count it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ClientId {
    /// The API key of this index in the operator's list.
    Key(u32),
    /// An address; an IPv6 address stands for its /64, which one host usually has whole.
    Address(IpAddr),
    /// A request that came with no address (the service's own tests, called in process).
    Local,
}

/// A request's client: who, with what limits, and how the log names it.
#[derive(Clone, Debug)]
pub struct Client {
    pub id: ClientId,
    pub limits: ClientLimits,
    /// The key's fingerprint (a hash, never the key), for the log.
    pub fingerprint: Option<u64>,
}

impl Client {
    /// The client of in-process calls, with `limits`.
    pub fn local(limits: ClientLimits) -> Client {
        Client {
            id: ClientId::Local,
            limits,
            fingerprint: None,
        }
    }
}

/// The log's name for a client: `key:` and the key's fingerprint, or `ip:` and the address.
impl fmt::Display for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.id, self.fingerprint) {
            (ClientId::Key(_), Some(fingerprint)) => write!(f, "key:{fingerprint:016x}"),
            (ClientId::Key(index), None) => write!(f, "key#{index}"),
            (ClientId::Address(IpAddr::V6(address)), _) => write!(f, "ip:{address}/64"),
            (ClientId::Address(address), _) => write!(f, "ip:{address}"),
            (ClientId::Local, _) => f.write_str("local"),
        }
    }
}

/// The address a client is counted by: an IPv4 address as it is (an IPv4-mapped IPv6 one as
/// the IPv4 it maps), an IPv6 address as its /64.
pub fn client_address(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let bits = u128::from(v6) & !((1u128 << 64) - 1);
                IpAddr::V6(Ipv6Addr::from(bits))
            }
        },
    }
}

/// A network, as `--trusted-proxy` names one: an address, or an address and a prefix length.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Network {
    address: IpAddr,
    prefix: u8,
}

impl std::str::FromStr for Network {
    type Err = String;

    fn from_str(text: &str) -> Result<Network, String> {
        let (address, prefix) = match text.split_once('/') {
            Some((address, prefix)) => (address, Some(prefix)),
            None => (text, None),
        };
        let address: IpAddr = address
            .trim()
            .parse()
            .map_err(|_| format!("{text:?} is not an address or a network (10.0.0.0/8, ::1)"))?;
        let most = if address.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => most,
            Some(prefix) => prefix
                .trim()
                .parse::<u8>()
                .ok()
                .filter(|&prefix| prefix <= most)
                .ok_or_else(|| format!("{text:?}: the prefix length must be 0 to {most}"))?,
        };
        Ok(Network { address, prefix })
    }
}

impl fmt::Display for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.address, self.prefix)
    }
}

impl serde::Serialize for Network {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Network {
    pub fn contains(&self, address: IpAddr) -> bool {
        let masked = |bits: u128, width: u32| {
            let shift = width - u32::from(self.prefix);
            bits.checked_shr(shift).unwrap_or(0)
        };
        match (self.address, address) {
            (IpAddr::V4(network), IpAddr::V4(address)) => {
                masked(u32::from(network).into(), 32) == masked(u32::from(address).into(), 32)
            }
            (IpAddr::V6(network), IpAddr::V6(address)) => {
                masked(network.into(), 128) == masked(address.into(), 128)
            }
            (IpAddr::V4(_), IpAddr::V6(address)) => address
                .to_ipv4_mapped()
                .is_some_and(|v4| self.contains(IpAddr::V4(v4))),
            (IpAddr::V6(_), IpAddr::V4(_)) => false,
        }
    }
}

/// The address a request comes from: its peer's, or, where the peer is a trusted proxy, the
/// last address of the forwarding chain that is not one (the proxies append the address they
/// received from; addresses before the first untrusted one were written by the client itself
/// and prove nothing). `Forwarded` (RFC 7239) is read before `X-Forwarded-For`.
pub fn request_address(peer: IpAddr, headers: &HeaderMap, trusted: &[Network]) -> IpAddr {
    let is_trusted = |address: IpAddr| trusted.iter().any(|network| network.contains(address));
    if !is_trusted(peer) {
        return peer;
    }
    let chain = forwarded_chain(headers);
    chain
        .iter()
        .rev()
        .copied()
        .find(|&address| !is_trusted(address))
        .or_else(|| chain.first().copied())
        .unwrap_or(peer)
}

/// The addresses of the forwarding chain, first hop first; an element that is not an address
/// (an obfuscated identifier, `unknown`) ends the chain where it stands, since what comes
/// before it cannot be tied to an address.
fn forwarded_chain(headers: &HeaderMap) -> Vec<IpAddr> {
    let forwarded: Vec<&str> = headers
        .get_all("forwarded")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .collect();
    let elements: Vec<Option<IpAddr>> = if forwarded.is_empty() {
        headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .map(|element| element.trim().parse().ok())
            .collect()
    } else {
        forwarded
            .iter()
            .map(|element| forwarded_for(element))
            .collect()
    };
    let start = elements
        .iter()
        .rposition(Option::is_none)
        .map_or(0, |unreadable| unreadable + 1);
    elements[start..].iter().flatten().copied().collect()
}

/// The `for=` of one element of `Forwarded`: `for=192.0.2.1`, `for="[2001:db8::1]:4711"`.
fn forwarded_for(element: &str) -> Option<IpAddr> {
    let value = element.split(';').find_map(|pair| {
        let (name, value) = pair.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("for")
            .then_some(value.trim())
    })?;
    let value = value.trim_matches('"');
    if let Some(bracketed) = value.strip_prefix('[') {
        return bracketed.split_once(']')?.0.parse().ok();
    }
    value
        .parse()
        .ok()
        .or_else(|| value.rsplit_once(':')?.0.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn forwarding_headers_count_only_from_a_trusted_proxy() {
        let spoofed = headers(&[("x-forwarded-for", "203.0.113.9")]);
        assert_eq!(
            request_address(ip("198.51.100.7"), &spoofed, &[]),
            ip("198.51.100.7"),
            "never by default"
        );
        let proxy: Network = "10.0.0.0/8".parse().unwrap();
        assert_eq!(
            request_address(ip("198.51.100.7"), &spoofed, &[proxy]),
            ip("198.51.100.7"),
            "not from a peer that is not a trusted proxy"
        );
        // The client wrote 1.2.3.4 itself; the proxy appended the address it saw.
        let chain = headers(&[("x-forwarded-for", "1.2.3.4, 203.0.113.9, 10.1.1.1")]);
        assert_eq!(
            request_address(ip("10.0.0.2"), &chain, &[proxy]),
            ip("203.0.113.9")
        );
        let forwarded = headers(&[
            ("forwarded", "for=\"[2001:db8::1]:4711\";proto=https"),
            ("x-forwarded-for", "203.0.113.9"),
        ]);
        assert_eq!(
            request_address(ip("10.0.0.2"), &forwarded, &[proxy]),
            ip("2001:db8::1"),
            "Forwarded first"
        );
        let obfuscated = headers(&[("forwarded", "for=203.0.113.9, for=_hidden")]);
        assert_eq!(
            request_address(ip("10.0.0.2"), &obfuscated, &[proxy]),
            ip("10.0.0.2"),
            "an element that is not an address ends the chain"
        );
    }

    #[test]
    fn an_ipv6_client_is_its_slash_64() {
        assert_eq!(
            client_address(ip("2001:db8:1:2:aaaa::1")),
            client_address(ip("2001:db8:1:2:bbbb::2"))
        );
        assert_ne!(
            client_address(ip("2001:db8:1:2::1")),
            client_address(ip("2001:db8:1:3::1"))
        );
        assert_eq!(client_address(ip("::ffff:127.0.0.2")), ip("127.0.0.2"));
    }

    #[test]
    fn networks_parse_and_contain() {
        let network: Network = "127.0.0.0/8".parse().unwrap();
        assert!(network.contains(ip("127.0.0.3")));
        assert!(network.contains(ip("::ffff:127.0.0.3")));
        assert!(!network.contains(ip("128.0.0.1")));
        let one: Network = "::1".parse().unwrap();
        assert!(one.contains(ip("::1")) && !one.contains(ip("::2")));
        let all: Network = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains(ip("8.8.8.8")));
        assert!("10.0.0.0/33".parse::<Network>().is_err());
        assert!("proxy".parse::<Network>().is_err());
    }
}
