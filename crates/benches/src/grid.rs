//! A square-ish grid graph, the shape every generator lays its map on.
//!
//! A grid keeps the degree bounded (at most 4 links) whatever the size, which
//! is what real PBEM maps look like, so a cost curve over it shows the
//! engine's own growth and not the growth of the map's density.

/// `n` cells on rows of `width` cells; cell `i` sits at (`i % width`, `i / width`).
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub n: usize,
    pub width: usize,
}

impl Grid {
    pub fn new(n: usize) -> Grid {
        let width = (n as f64).sqrt().ceil().max(1.0) as usize;
        Grid { n, width }
    }

    pub fn height(&self) -> usize {
        self.n.div_ceil(self.width)
    }

    pub fn xy(&self, i: usize) -> (usize, usize) {
        (i % self.width, i / self.width)
    }

    /// The cells next to `i` (left, right, up, down), in increasing order.
    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = self.xy(i);
        let mut v = Vec::with_capacity(4);
        if y > 0 {
            v.push(i - self.width);
        }
        if x > 0 {
            v.push(i - 1);
        }
        if x + 1 < self.width && i + 1 < self.n {
            v.push(i + 1);
        }
        if i + self.width < self.n {
            v.push(i + self.width);
        }
        v
    }

    /// `k` cells spread evenly over the grid (players' homes), distinct.
    pub fn spread(&self, k: usize) -> Vec<usize> {
        let k = k.min(self.n).max(1);
        (0..k)
            .map(|j| (j * self.n) / k + (self.n / k) / 2)
            .map(|i| i.min(self.n - 1))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_symmetric_and_homes_distinct() {
        for n in [1, 2, 7, 100, 1001] {
            let g = Grid::new(n);
            for i in 0..n {
                for j in g.neighbours(i) {
                    assert!(j < n);
                    assert!(g.neighbours(j).contains(&i), "{n}: {i} -> {j}");
                }
            }
            let h = g.spread(n.min(10));
            let mut d = h.clone();
            d.dedup();
            assert_eq!(d.len(), h.len());
        }
    }
}
