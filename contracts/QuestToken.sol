// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Capped} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Capped.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @title QuestToken
/// @notice Questline's reward token: an ERC-20 with permit and a hard cap. Holders of
/// `MINTER_ROLE` mint freely up to the cap; anyone may buy through the public mint while the
/// admin keeps it open, at a fixed native-coin price and up to a per-wallet allowance.
contract QuestToken is ERC20, ERC20Permit, ERC20Capped, AccessControl, ReentrancyGuard {
    /// @notice May call `mint` (the token sale and the platform's reward minter hold it).
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @notice Whether `publicMint` is open.
    bool public publicMintOpen;
    /// @notice Price of one whole token (10**18 units) in wei of the native coin.
    uint256 public publicMintPrice;
    /// @notice Most token units one wallet may take through `publicMint`, all calls together.
    uint256 public publicMintWalletCap;
    /// @notice Token units each wallet has taken through `publicMint`.
    mapping(address wallet => uint256 amount) public publicMinted;

    /// @notice The public mint is closed.
    error PublicMintClosed();
    /// @notice A mint of zero tokens.
    error ZeroAmount();
    /// @notice The native coin sent is not the price of the tokens asked for.
    error WrongPayment(uint256 expected, uint256 sent);
    /// @notice The wallet would pass its public-mint allowance; `remaining` is what it may still take.
    error WalletCapExceeded(uint256 remaining);
    /// @notice Proceeds sent to the zero address.
    error ZeroAddress();
    /// @notice The native-coin transfer of the proceeds failed.
    error ProceedsTransferFailed();

    /// @notice The public mint's switch, price or wallet allowance changed.
    event PublicMintConfigured(bool open, uint256 price, uint256 walletCap);
    /// @notice `wallet` bought `amount` token units through the public mint for `paid` wei.
    event PublicMinted(address indexed wallet, uint256 amount, uint256 paid);
    /// @notice The admin sent the public mint's proceeds to `to`.
    event ProceedsWithdrawn(address indexed to, uint256 amount);

    /// @param name_ Token name (also the EIP-712 domain name of permits).
    /// @param symbol_ Token symbol.
    /// @param cap_ Hard cap on the total supply, in token units.
    /// @param admin Receives `DEFAULT_ADMIN_ROLE` and `MINTER_ROLE`.
    constructor(string memory name_, string memory symbol_, uint256 cap_, address admin)
        ERC20(name_, symbol_)
        ERC20Permit(name_)
        ERC20Capped(cap_)
    {
        if (admin == address(0)) revert ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(MINTER_ROLE, admin);
    }

    /// @notice Mints `amount` units to `to`, within the cap.
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }

    /// @notice Opens or closes the public mint and sets its price and wallet allowance.
    /// @param open Whether `publicMint` accepts purchases.
    /// @param price Wei of the native coin per whole token.
    /// @param walletCap Token units one wallet may take in total.
    function configurePublicMint(bool open, uint256 price, uint256 walletCap) external onlyRole(DEFAULT_ADMIN_ROLE) {
        publicMintOpen = open;
        publicMintPrice = price;
        publicMintWalletCap = walletCap;
        emit PublicMintConfigured(open, price, walletCap);
    }

    /// @notice What `publicMint(amount)` costs, in wei (rounded up).
    function publicMintCost(uint256 amount) public view returns (uint256) {
        return Math.mulDiv(amount, publicMintPrice, 1e18, Math.Rounding.Ceil);
    }

    /// @notice Buys `amount` token units for exactly `publicMintCost(amount)` wei.
    function publicMint(uint256 amount) external payable {
        if (!publicMintOpen) revert PublicMintClosed();
        if (amount == 0) revert ZeroAmount();
        uint256 cost = publicMintCost(amount);
        if (msg.value != cost) revert WrongPayment(cost, msg.value);
        uint256 taken = publicMinted[msg.sender];
        if (taken + amount > publicMintWalletCap) {
            revert WalletCapExceeded(publicMintWalletCap > taken ? publicMintWalletCap - taken : 0);
        }
        publicMinted[msg.sender] = taken + amount;
        _mint(msg.sender, amount);
        emit PublicMinted(msg.sender, amount, msg.value);
    }

    /// @notice Sends the whole native-coin balance (the public mint's proceeds) to `to`.
    function withdrawProceeds(address payable to) external onlyRole(DEFAULT_ADMIN_ROLE) nonReentrant {
        if (to == address(0)) revert ZeroAddress();
        uint256 amount = address(this).balance;
        (bool sent,) = to.call{value: amount}("");
        if (!sent) revert ProceedsTransferFailed();
        emit ProceedsWithdrawn(to, amount);
    }

    /// @dev ERC20Capped checks the cap on every mint.
    function _update(address from, address to, uint256 value) internal override(ERC20, ERC20Capped) {
        super._update(from, to, value);
    }
}
